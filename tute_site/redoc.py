"""The API's Redoc page, served wholly from this site (docs/API.md): drf-spectacular's own Redoc page
links Google Fonts, and Redoc's bundle shows a logo from cdn.redoc.ly, both refused by the site's
Content-Security-Policy (font-src and img-src 'self'). This page links no font (Redoc falls back to the
system's sans-serif), and its script is drf-spectacular-sidecar's Redoc bundle with that one logo
address replaced by an inline image.
"""

from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET
from drf_spectacular.plumbing import set_query_parameters

SIDECAR_BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
#: The one outside address in the bundle that a browser would load by itself.
REDOCLY_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
#: The site's own coin of oros (web/templates/web/base.html's favicon), as an inline image.
LOCAL_LOGO = (
    b"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Ccircle cx='12' "
    b"cy='12' r='10' fill='%23e8b10e' stroke='%238a6500' stroke-width='1.5'/%3E%3C/svg%3E"
)


@lru_cache(maxsize=1)
def redoc_bundle() -> tuple[bytes, bytes, str]:
    """The bundle as served (plain and gzipped) and its ETag, read once per process."""
    found = finders.find(SIDECAR_BUNDLE)
    assert isinstance(found, str), "drf-spectacular-sidecar is not installed"
    body = Path(found).read_bytes().replace(REDOCLY_LOGO, LOCAL_LOGO)
    return body, gzip.compress(body, 6), f'"{hashlib.sha256(body).hexdigest()[:32]}"'


@require_GET
def redoc_script(request: HttpRequest) -> HttpResponse:
    """Redoc's script, with nothing in it fetched from another site; cached a day (it changes only with
    the installed package)."""
    body, zipped, etag = redoc_bundle()
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    elif "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(zipped, content_type="text/javascript; charset=utf-8")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_GET
def redoc_page(request: HttpRequest) -> HttpResponse:
    """The API reference read by Redoc from the schema; no font, script or image from elsewhere."""
    title = settings.SPECTACULAR_SETTINGS.get("TITLE", "API")
    html = format_html(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{}</title>\n'
        "<style>body {{ margin: 0; padding: 0; }}</style>\n</head>\n<body>\n"
        '<redoc spec-url="{}"></redoc>\n<script src="{}"></script>\n</body>\n</html>\n',
        title,
        # as drf-spectacular's own page: ?lang= and ?version= go on to the schema
        set_query_parameters(
            reverse("schema"), lang=request.GET.get("lang"), version=request.GET.get("version")
        ),
        reverse("api-redoc-script"),
    )
    return HttpResponse(html)
