"""The rules page's text: docs/RULES.md rendered to HTML once per process (the file ships with the code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

RULES_FILE = Path(settings.BASE_DIR) / "docs" / "RULES.md"


@cache
def rules_html() -> SafeString:
    """docs/RULES.md as HTML. The file is the project's own (no user input), so its HTML is trusted."""
    text = RULES_FILE.read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "toc", "sane_lists"], output_format="html")
    return mark_safe(html)
