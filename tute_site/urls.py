"""Top-level URLs: the admin, the health check, each app's API under /api/v1/, and the website at /."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from tute_site.health import health
from tute_site.redoc import redoc_page, redoc_script
from tute_site.schema import SchemaApi

# The API's documentation pages load Swagger UI and Redoc from our own files (drf-spectacular-sidecar);
# Swagger UI's set-up script is a file of its own (the split view). Both pages carry a small inline
# <style>, and Redoc styles itself with <style> elements and runs its search in a blob: worker.
docs_page = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})

urlpatterns = [
    path("admin/", admin.site.urls),
    path("health/", health, name="health"),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("ratings.urls")),
    path("api/v1/", include("tournaments.urls")),
    path("api/v1/", include("ladder.urls")),
    path("api/v1/", include("lobby.urls")),
    path("api/v1/schema/", SchemaApi.as_view(), name="schema"),
    path("api/v1/docs/", docs_page(SpectacularSwaggerSplitView.as_view(url_name="schema")), name="api-docs"),
    # Redoc from our own files only (tute_site/redoc.py): no Google Fonts, no logo from cdn.redoc.ly.
    path("api/v1/redoc/", docs_page(redoc_page), name="api-redoc"),
    path("api/v1/redoc/redoc.standalone.js", redoc_script, name="api-redoc-script"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("web.urls")),
]

handler400 = "tute_site.errors.bad_request"
handler404 = "tute_site.errors.not_found"
handler500 = "tute_site.errors.server_error"
