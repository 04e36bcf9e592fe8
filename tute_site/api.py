"""API plumbing shared by every app: body limit, pagination, throttles, content negotiation, rendering."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import orjson
from django.conf import settings
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from rest_framework import exceptions, status
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
        return super().parse(io.BytesIO(body), media_type, parser_context)


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 100


class WindowCounterThrottle(SimpleRateThrottle):
    """A fixed-window request counter: one cache ``add`` or ``incr`` a request.

    DRF's own throttle keeps a list of every request's timestamp in the window and stores it back on
    each request, so its cost grows with the rate (3,000 floats pickled a request at 3000/min from one
    address). A counter per window costs the same at any rate; the price is that a client may spend
    two windows' worth across a window boundary.
    """

    duration: int
    num_requests: int

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        window = int(self.timer() // self.duration)
        self.window_end = (window + 1) * self.duration
        count = window_count(self.cache, f"{self.key}:{window}", self.duration + 1)
        return count <= self.num_requests or self.throttle_failure()

    def wait(self) -> float:
        return float(max(1, math.ceil(self.window_end - self.timer())))


def window_count(cache: BaseCache, key: str, ttl: int) -> int:
    """Count one request under ``key`` (a window's counter living ``ttl`` seconds); the new count.

    On Redis, INCR and EXPIRE go in one pipeline, one round trip (Django's ``add`` then ``incr`` take
    three: SET NX, EXISTS, INCR). Elsewhere ``incr`` first, since the key exists for all but a window's
    first request; ``add`` starts the window.
    """
    if isinstance(cache, RedisCache):
        full_key = cache.make_and_validate_key(key)
        client = cache._cache.get_client(full_key, write=True)  # type: ignore[attr-defined]
        with client.pipeline(transaction=False) as pipe:
            pipe.incr(full_key)
            pipe.expire(full_key, ttl)  # the key names one window: pushing its end back does no harm
            count, _ = pipe.execute()
        return int(count)
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
            if accept in _ANY_JSON and self.settings.URL_FORMAT_OVERRIDE not in request.GET:
                renderer = renderers[0]
                if renderer.media_type == "application/json":
                    return renderer, renderer.media_type
        return super().select_renderer(request, renderers, format_suffix)


_ANY_JSON = frozenset({"", "*/*", "application/json"})


class PerUserThrottle(WindowCounterThrottle):
    """Requests per authenticated user, which for bots and apps means per token's account."""

    scope = "user"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class PerAddressThrottle(WindowCounterThrottle):
    """Requests per client address, signed in or not."""

    scope = "address"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


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
