"""The OpenAPI schema view: the one API endpoint that reads ``?format=`` as a renderer choice.

``URL_FORMAT_OVERRIDE`` is off for the whole API (``?format=`` is the tournaments list's filter), so
the schema reads it itself: ``/api/v1/schema/?format=json`` still answers JSON, ``?format=yaml`` YAML.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from drf_spectacular.views import SpectacularAPIView
from rest_framework.negotiation import DefaultContentNegotiation

if TYPE_CHECKING:
    from rest_framework.renderers import BaseRenderer
    from rest_framework.request import Request


class SchemaFormatNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        return super().select_renderer(
            request, list(renderers), format_suffix or request.query_params.get("format")
        )


class SchemaApi(SpectacularAPIView):
    content_negotiation_class = SchemaFormatNegotiation
