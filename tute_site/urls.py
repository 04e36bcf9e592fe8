"""Top-level URLs. Each app adds its API under /api/ as it grows."""

from django.contrib import admin
from django.urls import path

from tute_site.health import health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("health/", health, name="health"),
]
