"""URLs for bench/api.py only: the site's URLs plus a plain Django JSON view, the benchmark's baseline."""

from django.http import HttpRequest, JsonResponse
from django.urls import path

from games.models import Match
from tute_site.urls import urlpatterns as site_urlpatterns


def plain_json_view(request: HttpRequest) -> JsonResponse:
    """A plain Django view (no DRF) that does one trivial query: a one-row lookup by primary key."""
    Match.objects.filter(pk=1).values_list("ply", flat=True).first()
    return JsonResponse({"ok": True, "n": 1})


urlpatterns = [*site_urlpatterns, path("bench/plain/", plain_json_view, name="bench-plain")]
