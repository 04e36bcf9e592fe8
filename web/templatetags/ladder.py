"""Filters of the ladder's pages."""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()


@register.filter
def json_pretty(value: Any) -> str:
    """A JSON value as indented text (autoescaped by the template), or a dash for nothing."""
    return "—" if value is None else json.dumps(value, indent=2, ensure_ascii=False)
