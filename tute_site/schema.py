"""The OpenAPI schema view: the one API endpoint that reads ``?format=`` as a renderer choice.

``URL_FORMAT_OVERRIDE`` is off for the whole API (``?format=`` is the tournaments list's filter), so
the schema reads it itself: ``/api/v1/schema/?format=json`` still answers JSON, ``?format=yaml`` YAML.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

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


#: The error statuses any operation may answer, each in the one error shape (tute_site/exceptions.py).
ERROR_STATUSES = {
    "400": "Invalid input (`invalid`, with each field's messages in `detail`) or a refused request.",
    "401": "No credentials, or a token that is not valid (`not_authenticated`, `authentication_failed`).",
    "403": "Not allowed for this caller (`permission_denied`, `not_seated`, `people_only`, ...).",
    "404": "No such resource (`not_found`, `match_not_found`, ...).",
    "405": "Method not allowed.",
    "406": "The Accept header asks for something other than JSON.",
    "409": "The state does not allow it now (`stale_ply`, `match_not_open`, ...).",
    "413": "The request body is larger than TUTE_API_MAX_BODY_BYTES.",
    "415": "The body is not JSON.",
    "422": "Well formed but refused by the rules (`illegal_action`, ...).",
    "429": "Throttled, or past a cap (`throttled`, `too_many_streams`, `too_many_open_matches`); see Retry-After.",
}
ERROR_SCHEMA = {
    "type": "object",
    "description": "Every API error: a stable machine code, a message for people, and details or null.",
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "detail": {"nullable": True},
    },
    "required": ["code", "message", "detail"],
}


def error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: every operation documents each error status it may answer
    (unless it documents that status itself), all in the one error shape, ``Error``."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for code, description in ERROR_STATUSES.items():
                if code not in responses:
                    responses[code] = {
                        "description": description,
                        "content": {"application/json": {"schema": ref}},
                    }
    return result


#: DRF's text fields refuse the NUL character (ProhibitNullCharactersValidator): the schema says so.
NO_NUL = "^[^\\u0000]*$"
#: Python's whitespace (``str.isspace``), which DRF trims from a text before it checks it is not blank.
PY_SPACE = "\\t\\n\\u000b\\u000c\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
#: A text that may not be blank: no NUL, and at least one character that trimming keeps.
NOT_BLANK = f"^[^\\u0000]*[^\\u0000{PY_SPACE}][^\\u0000]*$"


def text_without_nul(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: every free text of a request body (a string without its
    own pattern, enum or format) documents that it may not hold NUL, which DRF refuses in any text, and,
    when it may not be blank, that it needs a character other than the whitespace DRF trims."""

    def walk(schema: Any) -> None:
        if not isinstance(schema, dict):
            return
        if schema.get("type") == "string" and not {"pattern", "enum", "format"} & schema.keys():
            # minLength 1: a field that may not be blank, which "\x1f" is once trimmed
            schema["pattern"] = NOT_BLANK if schema.get("minLength", 0) >= 1 else NO_NUL
        for sub in schema.get("properties", {}).values():
            walk(sub)
        walk(schema.get("items"))
        for key in ("allOf", "oneOf", "anyOf"):
            for sub in schema.get(key, []):
                walk(sub)

    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            walk(schema)
    return result
