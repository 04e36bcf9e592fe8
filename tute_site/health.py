"""GET /health/: is this process up, can it reach its database, does its cache answer?"""

import logging

from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tute_site.caching import cache_status

logger = logging.getLogger(__name__)


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """200 {"status": "ok", "database": "ok", "cache": "ok"}; 503 with the database's failure named.

    A cache that does not answer leaves the service up (the API goes on without it): 200 with
    ``"status": "degraded"`` and ``"cache": "degraded"``. The reason names the error class only; the
    full message (hosts, users) goes to the log.
    """
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # whatever the failure, the database is not usable
        logger.warning("health check: database unavailable: %s", exc, exc_info=True)
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
    cache = cache_status()
    return JsonResponse({"status": "ok" if cache == "ok" else "degraded", "database": "ok", "cache": cache})
