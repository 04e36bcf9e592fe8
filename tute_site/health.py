"""GET /health/: is this process up and can it reach its database?"""

import logging

from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """200 {"status": "ok", "database": "ok"}, or 503 with the database's failure named.

    The reason names the error class only; the full message (hosts, users) goes to the log.
    """
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # whatever the failure, the database is not usable
        logger.warning("health check: database unavailable: %s", exc, exc_info=True)
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
