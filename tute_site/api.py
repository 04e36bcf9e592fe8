"""API plumbing shared by every app: body limit, pagination, throttles, content negotiation, rendering."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson
from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from django.utils.connection import ConnectionProxy
from rest_framework import exceptions, serializers, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.utils.encoders import JSONEncoder

if TYPE_CHECKING:  # rest_framework.views imports the settings that name this module: no cycle at runtime
    from collections.abc import Mapping

    from rest_framework.renderers import BaseRenderer
    from rest_framework.request import Request
    from rest_framework.views import APIView


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = "The request body is too large."


class LimitedJSONParser(JSONParser):
    """JSON bodies up to API_MAX_BODY_BYTES; DRF reads the raw stream, past Django's own limit."""

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
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        if encoding.lower().replace("-", "") == "utf8":
            try:
                return orjson.loads(body)  # the same values as json's, in a fraction of its time
            except orjson.JSONDecodeError:
                pass  # DRF's parser words the error (and reads what orjson refuses: integers past 64 bits)
        return super().parse(io.BytesIO(body), media_type, parser_context)


class JSONIntegerField(serializers.IntegerField):
    """An integer that must arrive as a JSON number: ``"7"`` (a string) or ``true`` is refused with
    ``invalid``, where DRF's ``IntegerField`` would take them for 7 and 1."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 100


class AccountAndAddressThrottle(SimpleRateThrottle):
    """Requests per account (a token's user, or the signed-in one) and per client address, each counted
    in a fixed window: the ``user`` and ``address`` rates of ``DEFAULT_THROTTLE_RATES``.

    One class for both limits, so that DRF's per-throttle work runs once a request and, with
    ``CACHE_URL``, both counters move in one Redis round trip rather than one each; both move on every
    request, refused or not, as with DRF's throttles. DRF's own throttle keeps a list of every
    request's timestamp in the window and stores it back on each request, so its cost grows with the
    rate; a counter costs the same at any rate, at the price that a client may spend two windows' worth
    across a window boundary.
    """

    SCOPES = ("user", "address")

    def __init__(self) -> None:  # two rates, read per request (tests patch THROTTLE_RATES)
        self.wait_seconds = 0.0

    def allow_request(self, request: Request, view: APIView) -> bool:
        now = self.timer()
        counted: list[tuple[str, int, int, int]] = []  # (key, limit, window's end, ttl)
        for scope in self.SCOPES:
            rate = self.THROTTLE_RATES.get(scope)
            ident = self.ident(scope, request)
            if rate is None or ident is None:
                continue
            limit, seconds = _parsed_rate(rate)
            window = int(now // seconds)
            key = self.cache_format % {"scope": scope, "ident": ident}
            counted.append((f"{key}:{window}", limit, (window + 1) * seconds, seconds + 1))
        if not counted:
            return True
        counts = window_counts(self.cache, [(key, ttl) for key, _, _, ttl in counted])
        over = [end for (_, limit, end, _), count in zip(counted, counts, strict=True) if count > limit]
        if not over:
            return True
        self.wait_seconds = float(max(1, math.ceil(max(over) - now)))
        return False

    def ident(self, scope: str, request: Request) -> str | None:
        if scope == "address":
            return self.get_ident(request)
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


def window_counts(cache: BaseCache, counters: list[tuple[str, int]]) -> list[int]:
    """Count one request under each ``(key, ttl)`` (a window's counter living ``ttl`` seconds); the new
    counts, in order.

    On Redis, every INCR and EXPIRE go in one pipeline, one round trip (Django's ``add`` then ``incr``
    take three: SET NX, EXISTS, INCR, for each key). Elsewhere ``incr`` first, since the key exists for
    all but a window's first request; ``add`` starts the window.
    """
    if isinstance(cache, ConnectionProxy):  # django.core.cache.cache (the throttles'): this thread's cache
        cache = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(cache, RedisCache):
        keys = [(cache.make_and_validate_key(key), ttl) for key, ttl in counters]
        client = cache._cache.get_client(keys[0][0], write=True)  # type: ignore[attr-defined]
        with client.pipeline(transaction=False) as pipe:
            for full_key, ttl in keys:
                pipe.incr(full_key)
                pipe.expire(full_key, ttl)  # the key names one window: pushing its end back does no harm
            replies = pipe.execute()
        return [int(count) for count in replies[::2]]
    return [_local_window_count(cache, key, ttl) for key, ttl in counters]


def _local_window_count(cache: BaseCache, key: str, ttl: int) -> int:
    for _ in range(3):
        try:
            return int(cache.incr(key))
        except ValueError:  # the window's first request, or the key just expired
            if cache.add(key, 1, ttl):
                return 1
    raise RuntimeError(f"the throttle counter {key!r} could neither be added nor incremented")


class JSONContentNegotiation(DefaultContentNegotiation):
    """The API renders JSON only outside DEBUG: a request that accepts JSON (or anything) needs no
    parsing of its Accept header; any other asks DRF, which answers 406 where it should."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        if len(renderers) == 1 and not format_suffix:
            accept = request.META.get("HTTP_ACCEPT", "")
            # No query string, no format override: spares building request.GET's QueryDict.
            query = request.META.get("QUERY_STRING")
            if accept in _ANY_JSON and (not query or self.settings.URL_FORMAT_OVERRIDE not in request.GET):
                renderer = renderers[0]
                if renderer.media_type == "application/json":
                    return renderer, renderer.media_type
        return super().select_renderer(request, renderers, format_suffix)


_ANY_JSON = frozenset({"", "*/*", "application/json"})


class OrjsonRenderer(JSONRenderer):
    """DRF's JSON renderer, encoding with orjson: the same bytes, in a fraction of the time.

    Every API answer is rendered, the action's and the view's included, and ``json.dumps`` with DRF's
    encoder class was a few percent of a move's CPU. Dates and times still go through DRF's encoder
    (its ``Z`` for UTC), as does anything orjson cannot encode; a request for indented JSON
    (``Accept: application/json; indent=4``) gets DRF's own rendering.
    """

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if (accepted_media_type and "indent" in accepted_media_type) or (
            renderer_context and renderer_context.get("indent") is not None
        ):
            return super().render(data, accepted_media_type, renderer_context)
        try:
            out = orjson.dumps(data, default=_DRF_ENCODER.default, option=_ORJSON_OPTIONS)
        except orjson.JSONEncodeError:
            return super().render(data, accepted_media_type, renderer_context)  # DRF's answer or error
        if _LINE_SEPARATOR in out or _PARAGRAPH_SEPARATOR in out:  # escaped, as DRF does, for JavaScript
            out = out.replace(_LINE_SEPARATOR, b"\\u2028").replace(_PARAGRAPH_SEPARATOR, b"\\u2029")
        return out


_DRF_ENCODER = JSONEncoder()
_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_LINE_SEPARATOR = "\u2028".encode()
_PARAGRAPH_SEPARATOR = "\u2029".encode()
