"""API plumbing shared by every app: the JSON body parser and its limit, the NDJSON renderer, strict
integers, pagination, the throttle and the client's address."""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.cache import add_never_cache_headers
from rest_framework import exceptions, parsers, renderers, serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.utils.encoders import JSONEncoder

from tute_site.caching import cache_count

if TYPE_CHECKING:  # rest_framework.views imports the settings that name this module: no cycle at runtime
    from rest_framework.views import APIView


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = "The request body is too large."


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, for bodies up to ``API_MAX_BODY_BYTES`` (413 ``request_too_large`` beyond, read
    no further), and 400 ``invalid`` for JSON nested too deeply for Python's parser."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.API_MAX_BODY_BYTES
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise RequestTooLarge(f"The request body is larger than {limit} bytes.")
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise RequestTooLarge(f"The request body is larger than {limit} bytes.")
        if not body:
            return {}
        try:
            return super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("The JSON body is nested too deeply.", code="invalid") from None


class NDJSONRenderer(renderers.BaseRenderer):
    """``application/x-ndjson``: what the event stream serves, so a client may ask for it by name (its
    errors come as one JSON line)."""

    media_type = "application/x-ndjson"
    format = "ndjson"
    charset = None

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        return json.dumps(data, cls=JSONEncoder, separators=(",", ":")).encode() + b"\n"


class EventStreamRenderer(renderers.BaseRenderer):
    """``text/event-stream`` (Server-Sent Events), what a browser's EventSource asks for: a stream's own
    type, and its errors as one ``error`` event."""

    media_type = "text/event-stream"
    format = "sse"
    charset = None

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        return (
            b"event: error\ndata: "
            + json.dumps(data, cls=JSONEncoder, separators=(",", ":")).encode()
            + b"\n\n"
        )


class JSONIntegerField(serializers.IntegerField):
    """An integer that must arrive as a JSON number: ``"7"`` (a string) or ``true`` is refused with
    ``invalid``, where DRF's ``IntegerField`` would take them for 7 and 1."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class Input(serializers.Serializer):
    """A request body's serializer: its text fields take JSON strings only, where DRF's ``CharField``
    would take the number 7 for "7" (the schema says ``type: string``)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            wrong = {
                name: ["Not a valid string."]
                for name, field in self.fields.items()
                if isinstance(field, serializers.CharField)
                and data.get(name) is not None
                and not isinstance(data.get(name), str)
            }
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)


class QueryIntegerField(serializers.IntegerField):
    """An integer query parameter written as one: ``7`` or ``-7``, not ``7.0`` (DRF's ``IntegerField``
    takes ``"7.0"`` for 7, which the schema's ``type: integer`` does not)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not re.fullmatch(r"-?[0-9]+", data):
            self.fail("invalid")
        return super().to_internal_value(data)


class Pagination(PageNumberPagination):
    """Numbered pages. ``page_size`` is a positive integer, pages of at most 100 (a larger ask gets 100, as
    the schema says); anything else is a 400, where DRF's own would quietly serve the default page. A page
    past the last is DRF's 404."""

    page_size_query_param = "page_size"
    max_page_size = 100

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> list[Any] | None:
        query_input(request)  # a page or page_size given twice is a 400 too
        page = request.query_params.get(self.page_query_param)
        if page is not None and not (page.isascii() and page.isdigit() and int(page) >= 1):
            # DRF's own would serve the first page for ?page= (blank); the schema says a positive integer.
            raise serializers.ValidationError({self.page_query_param: ["A positive integer."]})
        return super().paginate_queryset(queryset, request, view)

    def get_page_size(self, request: Request) -> int | None:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
            raise serializers.ValidationError({self.page_size_query_param: ["A positive integer."]})
        return min(int(raw), self.max_page_size)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {**parameter["schema"], "minimum": 1}
            elif parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {**parameter["schema"], "minimum": 1}
                parameter["description"] = (
                    f"Results a page, at most {self.max_page_size} (a larger ask gets that)."
                )
        return parameters


def query_input(request: Request) -> dict[str, str]:
    """The query string as a serializer's data: each parameter once (no operation takes a list there,
    so a repeated one is a 400 rather than its last value quietly), and a blank value as given (DRF
    would take a blank form value for an absent one, and its default: ``?ordering=`` is refused)."""
    repeated = sorted(name for name, values in request.query_params.lists() if len(values) > 1)
    if repeated:
        raise serializers.ValidationError({name: ["Give this parameter once."] for name in repeated})
    return request.query_params.dict()


def client_address(request: HttpRequest) -> str:
    """The client's address, as DRF's throttles read it: the connection's own, or with
    ``TUTE_PROXY_COUNT`` proxies in front, the address the outermost of them saw (X-Forwarded-For's
    entry that many from the end; the entries before it are the client's to write)."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies = settings.TUTE_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if not proxies or not forwarded:
        return remote
    hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
    return hops[-min(proxies, len(hops))] if hops else remote


def secret(response: Response) -> Response:
    """A response that shows a token: no cache (browser, proxy) may keep it (``Cache-Control: no-store``)."""
    add_never_cache_headers(response)
    return response


class ErrorOutput(serializers.Serializer):
    """Every API error: a stable machine code, a message for people, and details or null."""

    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.JSONField(allow_null=True)


class PagedList:
    """Mixed into an APIView whose GET answers one page of a list (``count``, ``next``, ``previous``,
    ``results``): ``pagination_class`` also tells drf-spectacular to document the page and its
    ``page``/``page_size`` parameters, not a plain array."""

    pagination_class = Pagination

    def page_response(self, request: Request, items: Any, output: Any) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, request, view=self)
        return paginator.get_paginated_response(output(page, many=True).data)


class AccountAndAddressThrottle(SimpleRateThrottle):
    """Requests per account (a token's user, or the signed-in one) and per client address, each counted
    in a fixed window: the ``user`` and ``address`` rates of ``DEFAULT_THROTTLE_RATES``.

    A counter per window costs the same at any rate (DRF's own throttles keep every request's time in
    the window), at the price that a client may spend two windows' worth across a window boundary.
    Both counters move on every request, refused or not. When the cache fails, requests go through
    uncounted (``tute_site.caching``): the limit fails open, the service stays up.
    """

    SCOPES = ("user", "address")

    def __init__(self) -> None:  # two rates, read per request (tests patch THROTTLE_RATES)
        self.wait_seconds = 0.0

    def allow_request(self, request: Request, view: APIView) -> bool:
        now = self.timer()
        over: list[float] = []  # the ends of the windows whose limits are passed
        for scope in self.SCOPES:
            rate = self.THROTTLE_RATES.get(scope)
            ident = self.ident(scope, request)
            if rate is None or ident is None:
                continue
            limit, seconds = _parsed_rate(rate)
            window = int(now // seconds)
            key = self.cache_format % {"scope": scope, "ident": ident}
            count = cache_count(f"{key}:{window}", seconds + 1)
            if count is not None and count > limit:
                over.append((window + 1) * seconds)
        if not over:
            return True
        self.wait_seconds = float(max(1, math.ceil(max(over) - now)))
        return False

    def ident(self, scope: str, request: Request) -> str | None:
        if scope == "address":
            return client_address(request)
        user = request.user
        return str(user.pk) if user and user.is_authenticated else None

    def wait(self) -> float:
        return self.wait_seconds


@lru_cache(maxsize=16)
def _parsed_rate(rate: str) -> tuple[int, int]:
    """(requests, seconds) of a rate such as ``1200/min``."""
    limit, seconds = SimpleRateThrottle.parse_rate(None, rate)  # type: ignore[arg-type]  # reads no self
    assert limit is not None and seconds is not None
    return limit, seconds
